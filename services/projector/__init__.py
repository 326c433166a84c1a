"""The projector: folds the shard feeds into read models (views, status, lobby).

``python -m services.projector`` runs it; ``--rebuild`` drops the read models and
rebuilds them from the table logs. See :mod:`services.projector.projector`.
"""
