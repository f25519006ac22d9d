"""Training of the support verifier (see attribution/models/support-verifier/MODEL_CARD.md).

Never imported by the engine: it needs the ``train`` extra (torch, transformers).
"""
