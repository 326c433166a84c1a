"""One game's engine host: the gRPC service and the consumer of the async command path.

``python -m services.engine --game freunde --port 50051`` (env ``REDIS_URL``,
``BW_SHARDS``). :mod:`services.engine.host` puts the jobs together: commands
(:mod:`~services.engine.commands`), table state (:mod:`~services.engine.tables`) and reads
(:mod:`~services.engine.queries`); the servicer only translates;
:mod:`services.engine.consumer` runs the same command handling for queued commands.
"""
