"""The rated pool's seeks: POST, GET and DELETE /v1/seeks."""
