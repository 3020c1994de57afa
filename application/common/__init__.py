"""What every capability of the application layer shares: its errors, the pool of native threads
for CPU-heavy work, content codings, listening addresses."""
