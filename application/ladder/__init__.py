"""Ratings: the ladder's listings, rated games between the same two accounts, the levels'
calibration."""
