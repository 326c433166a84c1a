"""One game's engine host: the gRPC service and the consumer of the async command path.

``python -m services.engine --game freunde --port 50051`` (env ``REDIS_URL``,
``BW_SHARDS``). The logic is in :mod:`services.engine.handler`; the servicer only
translates; :mod:`services.engine.consumer` runs the same handler for queued commands.
"""
