package main

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// demoCampaignsFS holds the demo campaigns as authored documents, one folder per demo panel
// key: demo/campaigns/demo/*.yaml for Canvass Demo, demo/campaigns/northwind/*.yaml for
// Northwind Rewards. Images they show are static files under /static/img/demo/.
//
//go:embed demo/campaigns
var demoCampaignsFS embed.FS

// DemoFile is one embedded campaign document. Name is its path in the embedded tree
// ("demo/campaigns/demo/01-about-you.yaml"), so parse errors point at the file.
type DemoFile struct {
	Name string
	Data []byte
}

// demoCampaignFiles returns the campaign documents (.yaml, .yml, .json) of one demo panel,
// sorted by name. A panel key without a folder is an error.
func demoCampaignFiles(panelKey string) ([]DemoFile, error) {
	dir := "demo/campaigns/" + panelKey
	if panelKey == "" || strings.ContainsAny(panelKey, `/\.`) {
		return nil, fmt.Errorf("demo campaigns: bad panel key %q", panelKey)
	}
	entries, err := fs.ReadDir(demoCampaignsFS, dir) // sorted by file name
	if err != nil {
		return nil, fmt.Errorf("demo campaigns of %s: %w", panelKey, err)
	}
	var files []DemoFile
	for _, e := range entries {
		if e.IsDir() || !isCampaignDocument(e.Name()) {
			continue
		}
		name := dir + "/" + e.Name()
		data, err := fs.ReadFile(demoCampaignsFS, name)
		if err != nil {
			return nil, fmt.Errorf("demo campaigns: %w", err)
		}
		files = append(files, DemoFile{Name: name, Data: data})
	}
	return files, nil
}

func isCampaignDocument(name string) bool {
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
