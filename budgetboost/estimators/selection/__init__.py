"""Select, then train: the feature groups a budget affords, chosen by a selection path, and a
classifier trained on them (:class:`~.select_then_train.SelectThenTrain`)."""
