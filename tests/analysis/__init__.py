"""Tests of ``budgetboost.analysis``: a file per module (``test_<module>.py``)."""
