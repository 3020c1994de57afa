"""What a SIGKILLed RQ worker leaves behind, built with RQ's own calls."""

from __future__ import annotations

from rq import Queue
from rq.executions import Execution
from rq.job import Job, JobStatus


def leave_as_a_killed_worker_does(client, job: Job) -> None:
    """The job taken off its queue and started, its execution listed but its record gone:
    RQ keeps an execution listed some 60 s after its record expired."""
    job.set_status(JobStatus.STARTED)
    Queue(job.origin, connection=client).remove(job.id)
    with client.pipeline() as pipe:
        execution = Execution.create(job, ttl=60, pipeline=pipe)
        pipe.execute()
    client.delete(execution.key)
