#!/usr/bin/env bash
# Runs the Ansible NetBox collection's own integration tests for its
# wireless and VPN modules (tasks/, from netbox-community/ansible_modules;
# see README.md) against a running inventory server, as the collection's CI
# runs them against a NetBox container:
#
#   1. netbox-deploy.py (the collection's seed, through pynetbox) fills the
#      empty database with the objects the tasks expect, by name and by id
#      (tenant 1, tag 4, interfaces 5 and 6, ...);
#   2. ansible-playbook runs the task files in the order of the
#      collection's tests/integration/targets/v4.3/tasks/main.yml.
#
# Usage: testdata/ansible/run.sh BASE_URL
#
# The server must be fresh (ids are asserted), have the v1 token
# 0123456789abcdef0123456789abcdef01234567 (`make run` creates it; so does
# server/servertest). netbox_wireless_link looks links up with
# ?interface_a=&interface_b=, filters NetBox does not have (it ignores them
# and answers the whole table, one link here); this service serves them as
# filters by interface id, so the default FILTER_UNKNOWN=guard passes.
#
# Needs on PATH: ansible-playbook (the `ansible` package, which bundles the
# netbox.netbox collection) and a python3 that imports pynetbox, both from
# requirements.txt here (.ci/run installs them). server/clientsuites_test.go (TestAnsibleCollection) runs
# this script on both databases.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
url="${1:?usage: $0 BASE_URL}"
url="${url%/}"
token=0123456789abcdef0123456789abcdef01234567

python="$(command -v python3)"
command -v ansible-playbook >/dev/null || { echo "ansible-playbook not on PATH (pip install -r $here/requirements.txt)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. The seed. Against NetBox 4.3 and later two of its calls fail, because
# they still use the payloads of older NetBox versions (a service with
# device= instead of parent_object_type/parent_object_id; a circuit
# termination with site= instead of termination_type/termination_id); the
# script prints those errors and goes on, against NetBox as here. Any other
# output is a difference and fails the run.
echo "== seed: netbox-deploy.py"
NETBOX_HOST="$url" NETBOX_TOKEN="$token" "$python" "$here/netbox-deploy.py" >"$work/seed.out" 2>&1 || {
	cat "$work/seed.out" >&2
	echo "netbox-deploy.py failed" >&2
	exit 1
}
if ! diff -u "$here/seed-expected.txt" "$work/seed.out"; then
	echo "netbox-deploy.py printed other errors than NetBox 4.6 answers (diff above: - expected, + got)" >&2
	exit 1
fi

# 2. The task files, pointed at this server (they name the URL of the
# collection's CI container).
mkdir -p "$work/tasks"
for f in "$here"/tasks/*.yml; do
	sed "s#http://localhost:32768#$url#g" "$f" >"$work/tasks/$(basename "$f")"
done
{
	echo '- hosts: localhost'
	echo '  connection: local'
	echo '  gather_facts: false'
	echo '  tasks:'
	# The order of the collection's main.yml (there the two l2vpn files are
	# commented out; they pass here and are kept).
	for t in netbox_wireless_lan netbox_wireless_lan_group netbox_wireless_link \
		netbox_l2vpn netbox_l2vpn_termination netbox_tunnel netbox_tunnel_group; do
		echo "    - name: ${t^^} TESTS"
		echo "      ansible.builtin.include_tasks: tasks/$t.yml"
	done
} >"$work/play.yml"

echo "== ansible-playbook"
# ANSIBLE_HOME keeps ansible's temporary and cache files out of $HOME; the
# modules run under the python3 that has pynetbox.
cd "$work"
ANSIBLE_HOME="$work/ansible-home" \
	ANSIBLE_NOCOLOR=1 \
	ANSIBLE_LOCALHOST_WARNING=false \
	ANSIBLE_INVENTORY_UNPARSED_WARNING=false \
	ANSIBLE_RETRY_FILES_ENABLED=false \
	ansible-playbook -i localhost, -e "ansible_python_interpreter=$python" play.yml
