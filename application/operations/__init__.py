"""Operating the service: the RQ jobs, the sweep of lost work, compaction, the archive tier,
bulk export, metrics scrapes."""
