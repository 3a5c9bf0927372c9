#!/bin/sh
# A fake UCCI/UCI engine for the match-runner tests (tests/arena.rs).
#
# Usage: fake.sh MODE [ARG]
#
# It plays only chariot shuffles from the start position, which are legal
# there and repeat the start position every four plies: Red a0a1 / a1a0,
# Black a9a8 / a8a9 (chosen by counting the moves in the last `position`).
# Two shufflers draw by repetition after eight plies.
#
# MODE:
#   shuffle        play the shuffle (reporting score 12)
#   scored N       play the shuffle reporting score N
#   illegal        answer every go with a9a5 / a0a5 (blocked by a pawn)
#   none           answer every go with nobestmove
#   resign         play the shuffle and resign at the first move
#   crash N        exit with status 3 on receiving the Nth go
#   silent         never answer go (nor stop)
#   slow MS        sleep MS milliseconds before each reply
#   record FILE    play the shuffle and append every command to FILE
#   script LIST    play LIST's entry number <plies so far> (comma-separated
#                  ICCS moves for the whole game, both sides)

mode=${1:-shuffle}
arg=${2:-}
gos=0
plies=0

say() { printf '%s\n' "$*"; }

shuffle_move() {
    if [ $((plies % 2)) -eq 0 ]; then
        k=$((plies / 2))
        if [ $((k % 2)) -eq 0 ]; then mv=a0a1; else mv=a1a0; fi
    else
        k=$(((plies - 1) / 2))
        if [ $((k % 2)) -eq 0 ]; then mv=a9a8; else mv=a8a9; fi
    fi
}

while IFS= read -r line; do
    if [ "$mode" = record ]; then printf '%s\n' "$line" >>"$arg"; fi
    set -- $line
    case "$1" in
    ucci)
        say "id name fake-$mode"
        say "option usemillisec type check default true"
        say "option usebook type check default true"
        say "option hashsize type spin min 1 max 1024 default 16"
        say "option threads type spin min 1 max 8 default 1"
        say "option newgame type button"
        say "ucciok"
        ;;
    uci)
        say "id name fake-$mode"
        say "option name Hash type spin default 16 min 1 max 1024"
        say "option name Threads type spin default 1 min 1 max 8"
        say "uciok"
        ;;
    isready) say "readyok" ;;
    position)
        plies=0
        seen=0
        for tok in "$@"; do
            if [ $seen -eq 1 ]; then plies=$((plies + 1)); fi
            if [ "$tok" = moves ]; then seen=1; fi
        done
        ;;
    go)
        gos=$((gos + 1))
        shuffle_move
        case "$mode" in
        illegal)
            if [ $((plies % 2)) -eq 0 ]; then mv=a0a5; else mv=a9a5; fi
            say "bestmove $mv"
            ;;
        none) say "nobestmove" ;;
        resign) say "bestmove $mv resign" ;;
        crash)
            if [ "$gos" -ge "${arg:-1}" ]; then exit 3; fi
            say "bestmove $mv"
            ;;
        silent) ;;
        script)
            mv=$(printf '%s\n' "$arg" | cut -d, -f$((plies + 1)))
            say "bestmove $mv"
            ;;
        scored)
            say "info depth 3 score $arg pv $mv"
            say "bestmove $mv"
            ;;
        slow)
            sleep "$(awk "BEGIN { print ${arg:-1000} / 1000 }")"
            say "info depth 1 score 0"
            say "bestmove $mv"
            ;;
        *)
            say "info depth 3 score 12 nodes 100 pv $mv"
            say "bestmove $mv"
            ;;
        esac
        ;;
    quit) exit 0 ;;
    esac
done
