"""The Boardwright HTTP gateway: FastAPI in front of the engine services and read models.

``create_app(settings)`` in :mod:`gateway.app` builds the application; ``python -m gateway``
serves it with uvicorn; :mod:`gateway.cli` is the command-line client.
"""
