"""The service's named metrics (prometheus_client), counted where the work happens."""
