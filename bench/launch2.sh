#!/usr/bin/env bash
# launch2.sh CMD...: bench/launch.sh with 2 ranks (kept for the scripts that name it).
exec "$(dirname "$0")/launch.sh" 2 "$@"
