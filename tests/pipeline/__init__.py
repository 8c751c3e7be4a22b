"""Tests of ``budgetboost.pipeline``: a file per module (``test_<module>.py``)."""
