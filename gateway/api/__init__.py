"""The HTTP API: one router per resource, collected in :mod:`gateway.api.main`."""
