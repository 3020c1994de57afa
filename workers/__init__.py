"""Worker start-up: an RQ worker over the queues of application.operations.jobs, and the sweep
thread."""
