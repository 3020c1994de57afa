"""Challenges: an account invites accounts or built-in bots to a game; their budget, events,
webhooks and errors."""
