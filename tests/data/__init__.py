"""Tests of ``budgetboost.data``: a file per module (``test_<module>.py``)."""
