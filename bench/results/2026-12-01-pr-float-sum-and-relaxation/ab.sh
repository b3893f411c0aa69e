#!/bin/bash
# ab.sh OUTFILE ROUNDS JAR1 JAR2 ...: kron/grid pr (G, APPS, IMPLS env) at 2 threads, jars interleaved
out=$1; rounds=$2; shift 2
for r in $(seq 1 $rounds); do for j in "$@"; do
  tag=ab-$(basename $j .jar)-$r-$$; ./scal.sh $j $tag ${T:-2} > $tag.log 2>&1
  grep -h "| ${APPS:-pr} |" $tag/*.md | awk -F'|' -v j=$(basename $j .jar) -v r=$r '{print j, r, $4, $6, $7, $10, $11, $14}' >> $out
done; done
