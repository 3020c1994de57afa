"""Tournament records in Redis."""
