#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Generates ./configure from configure.ac (needs autoconf, automake, autoconf-archive).
set -e
cd "$(dirname "$0")"
autoreconf --install --force
