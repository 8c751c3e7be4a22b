"""Tests of ``budgetboost.report``: a file per module (``test_<module>.py``)."""
