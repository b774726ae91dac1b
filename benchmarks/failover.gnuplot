# Requests per second by outcome around a fault of a region server (kill -9, or SIGSTOP then SIGCONT), with the latency's p99, from one
# failover run's timeline. Called by run.sh for each line of failover.charts:
#   gnuplot -e "data='...tsv'; out='...png'; heading='...'; fault='kill -9'; marks='expired:9.5 reassigned:13.5'" failover.gnuplot
set terminal pngcairo size 1000,520 font ",10"
set output out
set title heading . ": requests per second by outcome (sent in that second), " . fault . " at 0 s"
set datafile separator "\t"
set key outside below horizontal
set grid
set xlabel "seconds from the fault"
set ylabel "requests/s"
set yrange [0:*]
set y2label "p99 latency (ms)"
set y2tics
set y2range [0:*]
set style fill transparent solid 0.6 noborder
set arrow from 0, graph 0 to 0, graph 1 nohead dt 2 lw 2 lc rgb "black"
set label fault at 0, graph 0.96 offset 0.5, 0
# marks: "event:seconds ..." from the run (expired, reassigned; or resumed).
do for [i = 1:words(marks)] {
  mark = word(marks, i)
  colon = strstrt(mark, ":")
  at = real(mark[colon + 1:])
  set arrow from at, graph 0 to at, graph 1 nohead dt 2 lw 2 lc rgb (i == 1 ? "dark-orange" : "dark-green")
  set label mark[1:colon - 1] at at, graph 0.96 - 0.06 * i offset 0.5, 0
}
plot data using 1:2 with steps lw 2 lc rgb "forest-green" title "answered 2xx", \
     '' using 1:3 with steps lw 2 lc rgb "red" title "503 (failMode)", \
     '' using 1:($4 + $5 + $6) with steps lw 2 lc rgb "black" title "other status, no answer, connection failed", \
     '' using 1:10 axes x1y2 with lines lw 1 dt 3 lc rgb "blue" title "p99 latency (right axis)"
