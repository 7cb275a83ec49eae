#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Stands for the Check suites (check_engine, check_format, check_workload)
# when configure found no Check library: they are skipped, and say why.
echo "SKIP: the Check suites: configure found no Check 0.15 (install the Debian package check, then rerun configure)"
exit 77
