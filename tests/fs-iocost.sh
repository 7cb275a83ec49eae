#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The io controller's iocost files (block/blk-iocost.c): io.cost.qos and
# io.cost.model on the v2 root (ioc_files[], CFTYPE_ONLY_ON_ROOT), io.weight
# per device, and ioc_pd_stat()'s cost.* fields in io.stat.  The emulated
# disks 8:0 and 8:16 are non-rotational with a queue depth above 1, so
# ioc_autop_idx() gives them autop[AUTOP_SSD_DFL].
. "${top_srcdir:-.}/tests/fs-lib.sh"

mount_fs "$TMP/v2" --flush_period_ms=50
M=$TMP/v2
AUTO_QOS="enable=0 ctrl=auto rpct=0.00 rlat=25000 wpct=0.00 wlat=25000 min=1.00 max=10000.00"
AUTO_MODEL="ctrl=auto model=linear rbps=488636629 rseqiops=8932 rrandiops=8518 wbps=427891549 wseqiops=28755 wrandiops=21940"

mkdir "$M/x" || fail mkdir
[ -e "$M/x/io.cost.qos" ] && fail "io.cost.qos below the root"
[ -e "$M/x/io.cost.model" ] && fail "io.cost.model below the root"
expect "qos mode" "$(stat -c %a "$M/io.cost.qos")" 644
expect "model mode" "$(stat -c %a "$M/io.cost.model")" 644
# blkcg_print_blkgs() prints a line per device with an ioc: none yet
expect "qos empty" "$(wc -c < "$M/io.cost.qos")" 0
expect "model empty" "$(wc -c < "$M/io.cost.model")" 0
# blkg_conf_prep(): no ioc on the queue, policy not enabled: EOPNOTSUPP,
# after the key's EINVAL and the device's ENODEV
expect "weight before ioc" "$(err write "$M/x/io.weight" "8:0 50")" EOPNOTSUPP
expect "weight bad key" "$(err write "$M/x/io.weight" "8:0x 50")" EINVAL
expect "weight unknown dev" "$(err write "$M/x/io.weight" "8:48 50")" ENODEV
expect "weight bad body, no ioc" "$(err write "$M/x/io.weight" "8:0 zz")" EOPNOTSUPP

# blkg_conf_open_bdev() errors come before blk_iocost_init()
expect "qos unknown dev" "$(err write "$M/io.cost.qos" "8:32 enable=1")" ENODEV
expect "qos bad key" "$(err write "$M/io.cost.qos" "8:0enable=1")" EINVAL
expect "qos still empty" "$(wc -c < "$M/io.cost.qos")" 0
# the first write naming a device makes its ioc, even one that fails
expect "qos min > max" "$(err write "$M/io.cost.qos" "8:0 min=200 max=100")" EINVAL
expect "qos line made" "$(cat "$M/io.cost.qos")" "8:0 $AUTO_QOS"
expect "model line made" "$(cat "$M/io.cost.model")" "8:0 $AUTO_MODEL"
expect "qos enable" "$(err write "$M/io.cost.qos" "8:0 enable=1")" OK
expect "qos enabled" "$(cat "$M/io.cost.qos")" \
	"8:0 enable=1 ctrl=auto rpct=0.00 rlat=25000 wpct=0.00 wlat=25000 min=1.00 max=10000.00"
# cgroup_parse_float(buf, 2): 95.5 -> 9550 hundredths, ppm 955000
expect "qos rpct" "$(err write "$M/io.cost.qos" "8:0 rpct=95.5")" OK
expect "qos rpct read" "$(cat "$M/io.cost.qos")" \
	"8:0 enable=1 ctrl=user rpct=95.50 rlat=25000 wpct=0.00 wlat=25000 min=1.00 max=10000.00"
# DIV_ROUND_CLOSEST of the extra digits; trailing text after the number is
# not checked by sscanf(); "%u" must end the token (match_one())
expect "qos wpct round" "$(err write "$M/io.cost.qos" "8:0 wpct=12.345 rlat=0x10")" OK
expect "qos wpct read" "$(cut -d' ' -f4-6 "$M/io.cost.qos")" "rpct=95.50 rlat=16 wpct=12.35"
expect "qos wpct junk" "$(err write "$M/io.cost.qos" "8:0 wpct=7abc")" OK
expect "qos wpct junk read" "$(cut -d' ' -f6 "$M/io.cost.qos")" "wpct=7.00"
expect "qos rlat junk" "$(err write "$M/io.cost.qos" "8:0 rlat=5ms")" EINVAL
expect "qos rpct > 100" "$(err write "$M/io.cost.qos" "8:0 rpct=100.01")" EINVAL
expect "qos rpct < 0" "$(err write "$M/io.cost.qos" "8:0 rpct=-1")" EINVAL
expect "qos rpct empty" "$(err write "$M/io.cost.qos" "8:0 rpct=")" EINVAL
expect "qos unknown token" "$(err write "$M/io.cost.qos" "8:0 foo=1")" EINVAL
expect "qos ctrl other" "$(err write "$M/io.cost.qos" "8:0 ctrl=manual")" EINVAL
# u32 qos[]: rlat keeps the low 32 bits (match_u64() then qos[tok] = v)
expect "qos rlat wraps" "$(err write "$M/io.cost.qos" "8:0 rlat=4294967301")" OK
expect "qos rlat wrapped" "$(cut -d' ' -f5 "$M/io.cost.qos")" "rlat=5"
# min/max clamped to VRATE_MIN_PPM..VRATE_MAX_PPM (1%..10000%)
expect "qos min 0.5 max 20000" "$(err write "$M/io.cost.qos" "8:0 min=0.5 max=20000")" OK
expect "qos clamped" "$(cut -d" " -f8-9 "$M/io.cost.qos")" "min=1.00 max=10000.00"
before=$(cat "$M/io.cost.qos")
expect "qos min > max again" "$(err write "$M/io.cost.qos" "8:0 min=50 max=40")" EINVAL
expect "qos unchanged on EINVAL" "$(cat "$M/io.cost.qos")" "$before"
# a failing token after good ones: nothing of the write persists
expect "qos partial" "$(err write "$M/io.cost.qos" "8:0 enable=0 rpct=50 bad")" EINVAL
expect "qos unchanged on partial" "$(cat "$M/io.cost.qos")" "$before"
# ctrl=auto: ioc_refresh_params() copies autop's qos back
expect "qos ctrl=auto" "$(err write "$M/io.cost.qos" "8:0 ctrl=auto")" OK
expect "qos auto again" "$(cat "$M/io.cost.qos")" \
	"8:0 enable=1 ctrl=auto rpct=0.00 rlat=25000 wpct=0.00 wlat=25000 min=1.00 max=10000.00"

# io.cost.model (ioc_cost_model_write())
expect "model other" "$(err write "$M/io.cost.model" "8:16 model=quadratic")" EINVAL
expect "model 8:16 made" "$(cat "$M/io.cost.model" | tr '\n' '|')" \
	"8:0 $AUTO_MODEL|8:16 $AUTO_MODEL|"
expect "qos 8:16 made" "$(sed -n 2p "$M/io.cost.qos")" "8:16 $AUTO_QOS"
expect "model linear" "$(err write "$M/io.cost.model" "8:16 model=linear")" OK
expect "model linear read" "$(sed -n 2p "$M/io.cost.model")" "8:16 $AUTO_MODEL"
expect "model rbps" "$(err write "$M/io.cost.model" "8:16 rbps=1000 wrandiops=0x20")" OK
expect "model user" "$(sed -n 2p "$M/io.cost.model")" \
	"8:16 ctrl=user model=linear rbps=1000 rseqiops=8932 rrandiops=8518 wbps=427891549 wseqiops=28755 wrandiops=32"
expect "model bad number" "$(err write "$M/io.cost.model" "8:16 rbps=12x")" EINVAL
expect "model overflow" "$(err write "$M/io.cost.model" "8:16 rbps=18446744073709551616")" EINVAL
expect "model ctrl=auto" "$(err write "$M/io.cost.model" "8:16 ctrl=auto")" OK
expect "model auto again" "$(sed -n 2p "$M/io.cost.model")" "8:16 $AUTO_MODEL"

# io.weight per device, now that both have an ioc (ioc_weight_write(),
# ioc_weight_prfill())
expect "weight 8:0" "$(err write "$M/x/io.weight" "8:0 50")" OK
expect "weight 8:16" "$(err write "$M/x/io.weight" "8:16 10000")" OK
expect "weight 0" "$(err write "$M/x/io.weight" "8:16 0")" EINVAL
expect "weight 10001" "$(err write "$M/x/io.weight" "8:16 10001")" EINVAL
expect "weight junk" "$(err write "$M/x/io.weight" "8:16 zz")" EINVAL
expect "weight default 7" "$(err write "$M/x/io.weight" "default 7")" OK
expect "weight read" "$(cat "$M/x/io.weight" | tr '\n' '|')" "default 7|8:0 50|8:16 10000|"
expect "weight clear" "$(err write "$M/x/io.weight" "8:0 default")" OK
expect "weight read 2" "$(cat "$M/x/io.weight" | tr '\n' '|')" "default 7|8:16 10000|"

# ---- cost.usage: calc_vtime_cost_builtin() per IO, all sequential, of
# whole pages; usage_us = abs cost / VTIME_PER_USEC at vrate 100% ----
VTIME_PER_SEC=137438953472	# 1 << 37
VTIME_PER_USEC=$((VTIME_PER_SEC / 1000000))
up() { echo $((($1 + $2 - 1) / $2)); }
# calc_lcoefs(bps, seqiops): page, seqio
page() { up $VTIME_PER_SEC "$(up "$1" 4096)"; }
seqio() { p=$(page "$1"); v=$(up $VTIME_PER_SEC "$2"); [ "$v" -gt "$p" ] && echo $((v - p)) || echo 0; }
RPAGE=$(page 488636629); RSEQ=$(seqio 488636629 8932)
WPAGE=$(page 427891549); WSEQ=$(seqio 427891549 28755)
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
num() { v=$(field "$1" "$2"); echo "${v:-0}"; }
vcost() {	# LINE [SNAPSHOT LINE]: abs vtime of the 8:0 IO between them
	rb=$(($(num "$1" rbytes) - $(num "$2" rbytes)))
	wb=$(($(num "$1" wbytes) - $(num "$2" wbytes)))
	ri=$(($(num "$1" rios) - $(num "$2" rios)))
	wi=$(($(num "$1" wios) - $(num "$2" wios)))
	rp=$((rb / 4096)); [ $rp -lt $ri ] && rp=$ri
	wp=$((wb / 4096)); [ $wp -lt $wi ] && wp=$wi
	echo $((ri * RSEQ + rp * RPAGE + wi * WSEQ + wp * WPAGE))
}
settle() {	# wait until DIR's io.stat stops changing
	prev=
	while :; do
		cur=$(cat "$1/io.stat")
		[ "$cur" = "$prev" ] && break
		prev=$cur
		sleep 0.3
	done
}
# 8:0 is enabled: a cgroup made now starts at zero
mkdir "$M/y" || fail mkdir
echo "file_write=20000 file_read=20000 footprint=64M" > "$M/y/memcgfs.workload"
sleep 1
echo preset=idle > "$M/y/memcgfs.workload"
settle "$M/y"
line=$(grep '^8:0 ' "$M/y/io.stat")
[ -n "$line" ] || fail "no 8:0 io in y"
case $line in *" dios=0 cost.usage="*) ;; *) fail "y io.stat: $line" ;; esac
v1=$(vcost "$line")
expect "y usage" "$(field "$line" cost.usage)" $((v1 / VTIME_PER_USEC))
# no cost.* on 8:16 (not enabled), no cost.vrate below the root
case $(cat "$M/y/io.stat") in *cost.vrate*) fail "cost.vrate below the root" ;; esac
# x had no IO: usage of a cgroup without IO has no line at all
expect "x io.stat" "$(wc -c < "$M/x/io.stat")" 0
# the root: " cost.vrate=100.00 cost.usage=N" (ioc_pd_stat(), level 0)
settle "$M"
rline=$(grep '^8:0 ' "$M/io.stat")
case $rline in *" cost.vrate=100.00 cost.usage="*) ;; *) fail "root io.stat: $rline" ;; esac

# disabled: the usage stays, new IO is not charged; re-enabled, only IO
# after counts (the counters are snapshot at each write)
expect "disable" "$(err write "$M/io.cost.qos" "8:0 enable=0")" OK
case $(cat "$M/y/io.stat") in *cost.*) fail "cost.* while disabled" ;; esac
echo "file_write=20000 footprint=64M" > "$M/y/memcgfs.workload"
sleep 1
echo preset=idle > "$M/y/memcgfs.workload"
settle "$M/y"
snap=$(grep '^8:0 ' "$M/y/io.stat")
expect "enable again" "$(err write "$M/io.cost.qos" "8:0 enable=1")" OK
usage0=$(field "$line" cost.usage)
expect "usage kept" "$(field "$(grep '^8:0 ' "$M/y/io.stat")" cost.usage)" "$usage0"
echo "file_read=20000 footprint=64M" > "$M/y/memcgfs.workload"
sleep 1
echo preset=idle > "$M/y/memcgfs.workload"
settle "$M/y"
line2=$(grep '^8:0 ' "$M/y/io.stat")
expect "usage since enable" "$(field "$line2" cost.usage)" \
	$(((v1 + $(vcost "$line2" "$snap")) / VTIME_PER_USEC))
echo "PASS: fs-iocost"
