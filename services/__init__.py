"""Long-running processes and their libraries: event store, engine host, projector, launcher."""
