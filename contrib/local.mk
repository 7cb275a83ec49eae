# benchmark scripts and helpers
