// Command gen writes the embedded base choice sets of package choicesets
// from their sources, so that the data is never typed by hand:
//
//	go run ./ent/logic/choicesets/gen -iata iata.py -iso3166 iso_3166.py \
//	    -unlocode pyunlocode-0.1.0-py3-none-any.whl -out ent/logic/choicesets
//
// iata.py and iso_3166.py are NetBox's netbox/extras/data files (Python
// lists of (value, label) tuples); the UN/LOCODE list is built from
// UNECE's code list CSVs ("<release> UNLOCODE CodeListPart{1,2,3}.csv",
// Windows-1252), read from a zip archive that holds them (the pyunlocode
// wheel carries release 2023-1). Each set is written as <set>.txt.gz: one
// line per choice, sorted by value, values unique: "value<US>X" when the
// label is "value (X)", as nearly all are (a third smaller gzip'd), else
// "value<TAB>label" (see choicesets.decode).
package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

type choice struct{ value, label string }

func main() {
	iata := flag.String("iata", "", "NetBox's netbox/extras/data/iata.py")
	iso := flag.String("iso3166", "", "NetBox's netbox/extras/data/iso_3166.py")
	unlocode := flag.String("unlocode", "", "zip archive holding UNECE's '<release> UNLOCODE CodeListPart*.csv'")
	out := flag.String("out", ".", "output directory")
	flag.Parse()
	if *iata == "" || *iso == "" || *unlocode == "" {
		flag.Usage()
		os.Exit(2)
	}
	sets := map[string][]choice{}
	var err error
	if sets["iata"], err = pyChoices(*iata); err != nil {
		log.Fatal(err)
	}
	if sets["iso_3166"], err = pyChoices(*iso); err != nil {
		log.Fatal(err)
	}
	if sets["un_locode"], err = locodes(*unlocode); err != nil {
		log.Fatal(err)
	}
	for name, cs := range sets {
		if err := write(filepath.Join(*out, name+".txt.gz"), cs); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d choices\n", name, len(cs))
	}
}

// pyTuple matches one ('value', 'label') tuple of a Python list literal;
// pyString one Python string literal in it.
var (
	pyString = `('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")`
	pyTuple  = regexp.MustCompile(`\(\s*` + pyString + `\s*,\s*` + pyString + `\s*\)`)
)

// pyChoices reads the (value, label) tuples of one of NetBox's data files,
// in its order (NetBox's lists are sorted by value; write checks it).
func pyChoices(path string) ([]choice, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []choice
	for _, m := range pyTuple.FindAllStringSubmatch(string(src), -1) {
		v, err := pyUnquote(m[1])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, m[1], err)
		}
		l, err := pyUnquote(m[2])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, m[2], err)
		}
		out = append(out, choice{v, l})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no choices found", path)
	}
	return out, nil
}

// pyUnquote decodes a Python string literal. The escapes NetBox's files
// use (\t, \', \", \\) are Go's too; the quotes are swapped for Go's.
func pyUnquote(lit string) (string, error) {
	body := lit[1 : len(lit)-1]
	body = strings.ReplaceAll(body, `\'`, `'`)
	body = strings.ReplaceAll(body, `"`, `\"`)
	body = strings.ReplaceAll(body, `\\"`, `\"`)
	return strconv.Unquote(`"` + body + `"`)
}

// locodes builds the UN/LOCODE set from UNECE's code list: one choice per
// code (country + location; the first entry of a code listed twice under
// two names), labelled as NetBox labels its other sets:
// "ADALV (Andorra la Vella, AD)", with the name without diacritics.
func locodes(archive string) ([]choice, error) {
	zr, err := zip.OpenReader(archive)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	var parts []*zip.File
	for _, f := range zr.File {
		if strings.Contains(f.Name, "UNLOCODE CodeListPart") && strings.HasSuffix(f.Name, ".csv") {
			parts = append(parts, f)
		}
	}
	if len(parts) != 3 {
		return nil, fmt.Errorf("%s: want 3 code list parts, found %d", archive, len(parts))
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Name < parts[j].Name })
	seen := map[string]bool{}
	var out []choice
	for _, f := range parts {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		r := csv.NewReader(charmap.Windows1252.NewDecoder().Reader(rc))
		r.FieldsPerRecord = -1
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				rc.Close()
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			// Columns: change, country, location, name, name without
			// diacritics, subdivision, ... Rows without a location are
			// country headings and "=" cross references.
			if len(rec) < 5 || rec[2] == "" {
				continue
			}
			code := rec[1] + rec[2]
			if seen[code] {
				continue
			}
			seen[code] = true
			out = append(out, choice{code, fmt.Sprintf("%s (%s, %s)", code, rec[4], rec[1])})
		}
		rc.Close()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].value < out[j].value })
	return out, nil
}

// write stores a set gzip'd, refusing what the reader could not decode:
// values out of order or repeated, tabs in values, newlines anywhere.
func write(path string, cs []choice) error {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	for i, c := range cs {
		if i > 0 && cs[i-1].value >= c.value {
			return fmt.Errorf("%s: %q after %q: values must be sorted and unique", path, c.value, cs[i-1].value)
		}
		if c.value == "" || strings.ContainsAny(c.value, "\t\n\x1f") || strings.Contains(c.label, "\n") {
			return fmt.Errorf("%s: bad choice %q", path, c)
		}
		if x, ok := strings.CutPrefix(c.label, c.value+" ("); ok && strings.HasSuffix(x, ")") {
			fmt.Fprintf(zw, "%s\x1f%s\n", c.value, x[:len(x)-1])
		} else {
			fmt.Fprintf(zw, "%s\t%s\n", c.value, c.label)
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
