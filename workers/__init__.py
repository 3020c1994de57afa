"""RQ job functions (bot turns, tournaments, replay exports) and worker start-up."""
