"""Worker start-up: an RQ worker over the queues of application.jobs, and the sweep thread."""
