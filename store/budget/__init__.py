"""Bot CPU budgets in Redis."""
