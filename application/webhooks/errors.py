"""Errors of outbound webhook calls (application.webhooks)."""

from __future__ import annotations

from domain.errors import KeltisError


class WebhookNotAllowed(KeltisError):
    """The webhook URL is malformed or its host does not resolve into KELTIS_WEBHOOK_ALLOW."""

    code = "webhook_not_allowed"
