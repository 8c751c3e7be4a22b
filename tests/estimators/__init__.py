"""Tests of ``budgetboost.estimators``: a file per module (``test_<module>.py``)."""
