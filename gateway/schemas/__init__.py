"""Request and response bodies of the HTTP API, kept apart (requests validate input,
responses document output)."""
