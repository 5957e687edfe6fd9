"""The balance report for variant designers (``cardavia report``): figures tallied from
simulated deals (:mod:`.tally`), their intervals and tests (:mod:`.stats`), comparisons
(:mod:`.runs`), charts (:mod:`.charts`) and the HTML page (:mod:`.page`)."""
