"""The Redis event store shared by the API and the workers."""
