# Sourced by the cluster benchmarks (capacity.sh, failover-at-scale.sh, reconnect-storm.sh,
# rolling-restart.sh) to read their flags: `cluster_options "$@"` sets each `--NAME VALUE`
# whose NAME the script lists in `options` (its defaults set before), and on anything else
# prints the script's usage (its comment lines 2 to `usage_end`) and exits 2.
cluster_options() {
    while [ $# -gt 0 ]; do
        local name=${1#--}
        if [ "$name" != "$1" ] && [[ " $options " == *" $name "* ]] && [ $# -ge 2 ]; then
            printf -v "$name" '%s' "$2"
            shift 2
        else
            sed -n "2,${usage_end}p" "$0"
            exit 2
        fi
    done
}
