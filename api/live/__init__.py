"""The live streams (NDJSON, held open) and their bounds."""
