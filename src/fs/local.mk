# FUSE daemon
