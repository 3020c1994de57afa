"""Bot CPU budgets: who pays for a request's bot work, its estimate, and settling what it cost."""
