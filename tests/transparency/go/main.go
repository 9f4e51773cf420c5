// A client no one at Pith wrote: Go's golang.org/x/mod/sumdb/note and sumdb/tlog (Debian's
// golang-golang-x-mod-dev, GOPATH mode) check a Pith checkpoint, its tiles and a record's proofs.
//
//	go run main.go VKEY CHECKPOINT LOG_DIR PROOFS_JSON
//
// Prints one line per check and exits 1 on the first failure.
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL "+format+"\n", args...)
	os.Exit(1)
}

// tiles reads C2SP tlog-tiles paths (tile/<L>/<N>[.p/<W>]); Go's own sumdb paths also name the height.
type tiles struct{ dir string }

func (t tiles) Height() int { return 8 }

func (t tiles) path(tile tlog.Tile, width int) string {
	n := tile.N
	groups := []string{fmt.Sprintf("%03d", n%1000)}
	for n /= 1000; n > 0; n /= 1000 {
		groups = append([]string{fmt.Sprintf("x%03d", n%1000)}, groups...)
	}
	p := filepath.Join(t.dir, "tile", strconv.Itoa(tile.L), filepath.Join(groups...))
	if width < 256 {
		p += ".p/" + strconv.Itoa(width)
	}
	return p
}

func (t tiles) ReadTiles(list []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(list))
	for i, tile := range list {
		data, err := os.ReadFile(t.path(tile, tile.W))
		if err != nil && tile.W < 256 {
			data, err = os.ReadFile(t.path(tile, 256))
			if err == nil {
				data = data[:tile.W*tlog.HashSize]
			}
		}
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

func (t tiles) SaveTiles([]tlog.Tile, [][]byte) {}

type leaf struct {
	LeafIndex int64    `json:"leaf_index"`
	Entry     string   `json:"entry"`
	Inclusion []string `json:"inclusion"`
}

func main() {
	if len(os.Args) != 5 {
		fail("usage: main.go VKEY CHECKPOINT LOG_DIR PROOFS_JSON")
	}
	verifier, err := note.NewVerifier(os.Args[1])
	if err != nil {
		fail("verifier key: %v", err)
	}
	raw, err := os.ReadFile(os.Args[2])
	if err != nil {
		fail("checkpoint: %v", err)
	}
	opened, err := note.Open(raw, note.VerifierList(verifier))
	if err != nil {
		fail("note.Open: %v", err)
	}
	lines := strings.Split(opened.Text, "\n")
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("checkpoint size: %v", err)
	}
	rootBytes, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(rootBytes) != tlog.HashSize {
		fail("checkpoint root: %v", err)
	}
	var root tlog.Hash
	copy(root[:], rootBytes)
	fmt.Printf("ok note: checkpoint of %d signed by %s\n", size, opened.Sigs[0].Name)

	// The tiles hash to the signed root: TileHashReader checks every tile it reads against it.
	reader := tlog.TileHashReader(tlog.Tree{N: size, Hash: root}, tiles{os.Args[3]})
	treeHash, err := tlog.TreeHash(size, reader)
	if err != nil || treeHash != root {
		fail("tlog.TreeHash from the tiles: %v (%v, want %v)", err, treeHash, root)
	}
	fmt.Printf("ok tiles: tlog.TreeHash(%d) is the checkpoint's root\n", size)

	var proofs struct {
		Paper struct {
			Snapshot     *leaf   `json:"snapshot"`
			Measurements []*leaf `json:"measurements"`
		} `json:"paper"`
		OtherPapers  map[string]*leaf `json:"other_papers"`
		Observations []struct {
			Reference  *leaf `json:"reference"`
			Resolution *leaf `json:"resolution"`
			Work       *leaf   `json:"work"`
			Overrides  []*leaf `json:"overrides"`
			Identifier *leaf   `json:"identifier"`
			Standing   []struct {
				Receipt *leaf   `json:"receipt"`
				Events  []*leaf `json:"events"`
			} `json:"standing"`
		} `json:"observations"`
	}
	data, err := os.ReadFile(os.Args[4])
	if err != nil {
		fail("proofs: %v", err)
	}
	if err := json.Unmarshal(data, &proofs); err != nil {
		fail("proofs: %v", err)
	}
	// Every leaf the proofs give: the paper's and the other papers' shown, then each observation's and its facts'.
	leaves := append([]*leaf{proofs.Paper.Snapshot}, proofs.Paper.Measurements...)
	for _, l := range proofs.OtherPapers {
		leaves = append(leaves, l)
	}
	for _, o := range proofs.Observations {
		leaves = append(append(leaves, o.Reference, o.Resolution, o.Work, o.Identifier), o.Overrides...)
		for _, s := range o.Standing {
			leaves = append(append(leaves, s.Receipt), s.Events...)
		}
	}
	checked := 0
	for _, l := range leaves {
		if l == nil {
			continue
		}
		var proof tlog.RecordProof
		for _, h := range l.Inclusion {
			b, err := base64.StdEncoding.DecodeString(h)
			if err != nil || len(b) != tlog.HashSize {
				fail("proof hash: %v", err)
			}
			var hash tlog.Hash
			copy(hash[:], b)
			proof = append(proof, hash)
		}
		if err := tlog.CheckRecord(proof, size, root, l.LeafIndex, tlog.RecordHash([]byte(l.Entry))); err != nil {
			fail("tlog.CheckRecord of leaf %d: %v", l.LeafIndex, err)
		}
		// And the proof Go builds from the tiles itself is the same.
		own, err := tlog.ProveRecord(size, l.LeafIndex, reader)
		if err != nil || len(own) != len(proof) {
			fail("tlog.ProveRecord of leaf %d: %v", l.LeafIndex, err)
		}
		for i := range own {
			if own[i] != proof[i] {
				fail("tlog.ProveRecord of leaf %d differs from Pith's at step %d", l.LeafIndex, i)
			}
		}
		checked++
	}
	fmt.Printf("ok inclusion: %d leaves checked with tlog.CheckRecord\n", checked)
}
