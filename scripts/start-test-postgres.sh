#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on a free loopback port for the tests and prints its
# URL. Installs Debian's server package first when it is missing (as root). The cluster lives
# in a temporary folder owned by `postgres` (initdb refuses root); stop it with
#   su postgres -c "pg_ctl -D <folder> stop"   (the folder is printed on stderr).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql </dev/null >/dev/null
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
data=$(mktemp -d /tmp/survey-pg-XXXXXX)
sockets=$(mktemp -d /tmp/survey-pg-sock-XXXXXX)
chown postgres:postgres "$data" "$sockets"
chmod 700 "$data"
su postgres -c "$bin/initdb -D $data -U postgres -A trust -E UTF8 --no-sync" >/dev/null
su postgres -c "$bin/pg_ctl -D $data -l $data/server.log -w -o '-p $port -c listen_addresses=127.0.0.1 -k $sockets' start" >/dev/null
su postgres -c "$bin/psql -h 127.0.0.1 -p $port -U postgres -q -c \"create role survey login password 'survey'\""
su postgres -c "$bin/psql -h 127.0.0.1 -p $port -U postgres -q -c 'create database survey owner survey'"
echo "PostgreSQL test cluster in $data" >&2
echo "postgres://survey:survey@127.0.0.1:$port/survey"
