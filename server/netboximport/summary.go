package netboximport

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// WriteSummary writes the import's summary table: per endpoint the
// objects read, written, refused and (when verified) identical and
// differing; then the refusals, the differences, the fields of the source
// this service lacks, and what an administrator does next.
func WriteSummary(w io.Writer, r *Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "endpoint\tread\twritten\trefused\t")
	if r.Verified {
		fmt.Fprintf(tw, "identical\tdiffering\tmissing\t")
	}
	fmt.Fprintln(tw)
	var read, wrote, refused, same, diff, miss int
	for _, e := range r.Endpoints {
		if e.Read == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t", e.Endpoint, e.Read, e.Written, e.Refused)
		if r.Verified {
			fmt.Fprintf(tw, "%d\t%d\t%d\t", e.Identical+e.Departed, e.Differing, e.Missing)
		}
		fmt.Fprintln(tw)
		read, wrote, refused = read+e.Read, wrote+e.Written, refused+e.Refused
		same, diff, miss = same+e.Identical+e.Departed, diff+e.Differing, miss+e.Missing
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t", read, wrote, refused)
	if r.Verified {
		fmt.Fprintf(tw, "%d\t%d\t%d\t", same, diff, miss)
	}
	fmt.Fprintln(tw)
	tw.Flush()
	if secs := r.Elapsed.Seconds(); secs > 0 {
		fmt.Fprintf(w, "\n%d objects from %s (NetBox %s) in %.1fs: %.0f objects/s\n", wrote, r.From, r.Version, secs, float64(wrote)/secs)
	}
	for _, p := range r.Refused {
		fmt.Fprintf(w, "refused: %s %d: %s\n", p.Endpoint, p.ID, p.Reason)
	}
	for _, d := range r.Differences {
		fmt.Fprintf(w, "differs: %s\n", d)
	}
	if len(r.Departures) > 0 {
		names := make([]string, 0, len(r.Departures))
		for n := range r.Departures {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "set aside: %d values (%s)\n", r.Departures[n], n)
		}
	}
	eps := make([]string, 0, len(r.Unknown))
	for ep := range r.Unknown {
		eps = append(eps, ep)
	}
	sort.Strings(eps)
	for _, ep := range eps {
		fmt.Fprintf(w, "not imported: %s fields %v (no such field here, or referring to what is not imported)\n", ep, r.Unknown[ep])
	}
	for _, ep := range r.UnknownEndpoints {
		fmt.Fprintf(w, "not imported: %s: no such model here\n", ep)
	}
	if r.Users > 0 {
		fmt.Fprintf(w, "%d users were created without a usable password (NetBox's API does not show passwords):\n"+
			"  set one with: inventory user set-password --username NAME --password ...\n", r.Users)
	}
}
