// Command screenshots compares the development gallery of a git revision with the work tree's:
// it builds the revision in a temporary worktree, serves both, takes a full-page picture of
// every gallery state from each in headless Chromium and writes an HTML report of the states
// whose pixels changed (before, after and the difference), counting the rest.
//
//	go run ./.ci/screenshots -base main [-widths 360,1280] [-all] [-states REGEXP] [-panel KEY]
//
// The work tree's bin/canvass must be built first (make screenshots does: make build). The
// report is .tmp/screenshots/report/index.html; nothing there is committed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type options struct {
	base      string
	sel       selection
	tolerance uint8
	pages     int
	out       string // relative to the repository's root unless absolute
}

func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("screenshots", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.base, "base", "main", "the git revision to compare the work tree with")
	widths := fs.String("widths", "360,1280", "viewport widths in px, comma-separated")
	fs.BoolVar(&o.sel.all, "all", false, "every language and layout of each panel, not only its default language in its own layout")
	states := fs.String("states", "", "only the states whose module/name matches this regular expression")
	fs.StringVar(&o.sel.panel, "panel", "", "only this panel (its key, e.g. northwind)")
	tolerance := fs.Int("tolerance", 8, "how far a colour channel (0-255) may move before its pixel counts as changed")
	fs.IntVar(&o.pages, "pages", 2, "pages shot at once")
	fs.StringVar(&o.out, "out", ".tmp/screenshots", "where the base's worktree and the report go")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var err error
	if o.sel.widths, err = parseWidths(*widths); err != nil {
		return o, err
	}
	if *states != "" {
		if o.sel.states, err = regexp.Compile(*states); err != nil {
			return o, fmt.Errorf("-states: %w", err)
		}
	}
	if *tolerance < 0 || *tolerance > 255 {
		return o, fmt.Errorf("-tolerance must be from 0 to 255, not %d", *tolerance)
	}
	o.tolerance = uint8(*tolerance)
	if o.pages < 1 || o.pages > 16 {
		return o, fmt.Errorf("-pages must be from 1 to 16, not %d", o.pages)
	}
	if strings.TrimSpace(o.base) == "" || strings.HasPrefix(o.base, "-") {
		return o, fmt.Errorf("-base must name a git revision, not %q", o.base)
	}
	return o, nil
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(2)
	}
	// Ctrl-C cancels the run; the deferred clean-ups stop the servers and Chromium and remove
	// the worktree before the program ends.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err = run(ctx, o)
	stop()
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "screenshots: interrupted (servers, Chromium and the worktree are cleaned up)")
		os.Exit(130)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	start := time.Now()
	root, err := git(ctx, "", "rev-parse", "--show-toplevel")
	if err != nil {
		return fmt.Errorf("not in a git work tree: %w", err)
	}
	headBin := filepath.Join(root, "bin", "canvass")
	if _, err := os.Stat(headBin); err != nil {
		return fmt.Errorf("%s is missing: run make build first (make screenshots does)", headBin)
	}
	hash, err := git(ctx, root, "rev-parse", "--verify", "--quiet", o.base+"^{commit}")
	if err != nil {
		return fmt.Errorf("-base %q is not a revision of this repository", o.base)
	}
	short, err := git(ctx, root, "rev-parse", "--short", hash)
	if err != nil {
		return err
	}
	revision := fmt.Sprintf("%s (%s)", o.base, short)
	out := o.out
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	reportDir := filepath.Join(out, "report")
	if err := os.RemoveAll(reportDir); err != nil {
		return err
	}
	if err := os.MkdirAll(reportDir, 0o755); err != nil {
		return err
	}

	// The base: its own worktree, built as the work tree is.
	src := filepath.Join(out, "base-src")
	removeWorktree(root, src) // a stale one from an interrupted run
	if _, err := git(ctx, root, "worktree", "add", "--detach", src, hash); err != nil {
		return fmt.Errorf("check out %s: %w", revision, err)
	}
	defer removeWorktree(root, src)
	if linkNodeModules(root, src) {
		fmt.Printf("Building %s in %s (npm packages shared with the work tree)\n", revision, relTo(root, src))
	} else {
		fmt.Printf("Building %s in %s (its npm packages differ: npm installs them, which takes a while)\n", revision, relTo(root, src))
	}
	buildLog := filepath.Join(out, "base-build.log")
	if err := build(ctx, src, buildLog); err != nil {
		return fmt.Errorf("build %s: %w", revision, err)
	}
	built := time.Now()

	// Both servers start at once; each has its own database and port.
	baseSrv, err := startServer("base", src, filepath.Join(src, "bin", "canvass"))
	if err != nil {
		return err
	}
	defer baseSrv.stop()
	headSrv, err := startServer("work tree", root, headBin)
	if err != nil {
		return err
	}
	defer headSrv.stop()
	baseStates, err := baseSrv.waitReady(ctx, revision)
	if err != nil {
		return err
	}
	headStates, err := headSrv.waitReady(ctx, "the work tree")
	if err != nil {
		return err
	}
	planned := pairs(o.sel.shots(baseStates), o.sel.shots(headStates))
	if len(planned) == 0 {
		return errors.New("no gallery state matches -states and -panel")
	}

	b, err := launchBrowser()
	if err != nil {
		return err
	}
	defer b.close()
	shooting := time.Now()
	fmt.Printf("Shooting %d shots (%d pages at once)\n", len(planned), o.pages)
	results, pictures, err := shootAll(ctx, b, baseSrv.url, headSrv.url, planned, o, reportDir)
	if err != nil {
		return err
	}
	shot := time.Since(shooting)

	s := summary{
		Base: o.base, BaseHash: short, Head: describeHead(ctx, root),
		Widths: joinInts(o.sel.widths), Tolerance: int(o.tolerance), Filter: filterText(o),
		States: countStates(planned), Seconds: int(time.Since(start).Seconds()),
	}
	index := filepath.Join(reportDir, "index.html")
	f, err := os.Create(index)
	if err != nil {
		return err
	}
	if err := writeReport(f, s, results); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}

	c := count(results)
	fmt.Printf("\nReport: %s\n", index)
	fmt.Printf("%s of %s: %d compared, %d changed, %d unchanged, %d added, %d removed",
		plural(len(planned), "shot"), plural(s.States, "state"), c.Compared, c.Changed, c.Unchanged, c.Added, c.Removed)
	if c.Failed > 0 {
		fmt.Printf(", %d failed", c.Failed)
	}
	fmt.Printf("\nTook %.0f s: the base built in %.0f s, %d pictures in %.0f s (%.1f a second)\n",
		time.Since(start).Seconds(), built.Sub(start).Seconds(), pictures, shot.Seconds(), float64(pictures)/shot.Seconds())
	if c.Failed > 0 {
		return fmt.Errorf("%d shots failed (listed in the report)", c.Failed)
	}
	return nil
}

// shootAll takes each pair's pictures on o.pages pages at once, compares them and keeps the
// pictures of the shots that changed, were added or removed. pictures counts those taken.
func shootAll(ctx context.Context, b *browser, baseURL, headURL string, planned []pair, o options, reportDir string) ([]result, int, error) {
	results := make([]result, len(planned))
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		done     atomic.Int32
		pictures atomic.Int32
		printing sync.Mutex
	)
	for range o.pages {
		baseCam, err := b.camera(baseURL)
		if err != nil {
			return nil, 0, fmt.Errorf("open a page: %w", err)
		}
		headCam, err := b.camera(headURL)
		if err != nil {
			return nil, 0, fmt.Errorf("open a page: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, n := shootPair(ctx, baseCam, headCam, planned[i], o.tolerance, reportDir)
				results[i] = r
				pictures.Add(int32(n))
				finished := done.Add(1)
				if ctx.Err() != nil {
					continue // interrupted: the shot's error says only that
				}
				if r.outcome != unchanged || finished%20 == 0 || int(finished) == len(planned) {
					printing.Lock()
					fmt.Printf("[%d/%d] %s: %s\n", finished, len(planned), r.shot, describe(r))
					printing.Unlock()
				}
			}
		}()
	}
feed:
	for i := range planned {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return results, int(pictures.Load()), ctx.Err()
}

func describe(r result) string {
	switch r.outcome {
	case changed:
		return "changed (" + formatShare(r.share) + ")"
	case added:
		return "added"
	case removed:
		return "removed"
	case failed:
		return "FAILED: " + errText(r.err)
	}
	return "unchanged"
}

// shootPair takes the pair's pictures (of the sides that have it) and compares them; n is how
// many it took.
func shootPair(ctx context.Context, baseCam, headCam *camera, p pair, tolerance uint8, reportDir string) (r result, n int) {
	r = result{shot: p.shot}
	fail := func(side string, err error) (result, int) {
		r.outcome, r.err = failed, fmt.Errorf("%s: %w", side, err)
		return r, n
	}
	var before, after []byte
	var err error
	if p.base {
		if before, err = baseCam.shoot(ctx, p.shot); err != nil {
			return fail("base", err)
		}
		n++
	}
	if p.head {
		if after, err = headCam.shoot(ctx, p.shot); err != nil {
			return fail("work tree", err)
		}
		n++
	}
	keep := func(name string, data []byte) (*picture, error) {
		dir := filepath.Join(reportDir, filepath.FromSlash(p.shot.dir()))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return nil, err
		}
		w, h := pngSize(data)
		return &picture{Src: path.Join(p.shot.dir(), name), Width: w, Height: h}, nil
	}
	switch {
	case !p.base:
		r.outcome = added
		r.after, err = keep("after.png", after)
	case !p.head:
		r.outcome = removed
		r.before, err = keep("before.png", before)
	default:
		cmp, cerr := diffPNGs(before, after, tolerance)
		if cerr != nil {
			return fail("compare", cerr)
		}
		if cmp.changed == 0 {
			return r, n
		}
		r.outcome, r.share = changed, cmp.share()
		diff, derr := encodePNG(cmp.diff)
		if derr != nil {
			return fail("encode the difference", derr)
		}
		r.before, err = keep("before.png", before)
		if err == nil {
			r.after, err = keep("after.png", after)
		}
		if err == nil {
			r.diff, err = keep("diff.png", diff)
		}
	}
	if err != nil {
		return fail("write", err)
	}
	return r, n
}

// git runs git in dir and returns its trimmed output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := command(ctx, dir, "git", args...)
	// git status and the like refresh the index when they may; this run changes nothing there.
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(outb)), nil
}

// describeHead names the work tree for the report: its HEAD and whether it has changes.
func describeHead(ctx context.Context, root string) string {
	head, err := git(ctx, root, "rev-parse", "--short", "HEAD")
	if err != nil {
		return "the work tree"
	}
	status, err := git(ctx, root, "status", "--porcelain")
	switch {
	case err != nil:
		return fmt.Sprintf("the work tree (HEAD %s)", head)
	case status != "":
		return fmt.Sprintf("the work tree (HEAD %s with uncommitted changes)", head)
	default:
		return fmt.Sprintf("the work tree (HEAD %s, no uncommitted changes)", head)
	}
}

func filterText(o options) string {
	var parts []string
	if o.sel.states != nil {
		parts = append(parts, "states matching "+o.sel.states.String())
	}
	if o.sel.panel != "" {
		parts = append(parts, "panel "+o.sel.panel+" only")
	}
	if o.sel.all {
		parts = append(parts, "every language and layout")
	} else {
		parts = append(parts, "each panel in its default language and own layout")
	}
	return strings.Join(parts, ", ")
}

func countStates(planned []pair) int {
	seen := map[string]bool{}
	for _, p := range planned {
		seen[p.shot.state()] = true
	}
	return len(seen)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, " and ")
}

// relTo is path relative to root when it lies inside it.
func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}
