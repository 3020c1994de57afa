"""Held requests: live streams, long polls and the bounds that keep them cheap."""
