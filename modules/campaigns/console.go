package campaigns

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gopkg.in/yaml.v3"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// What the operator console (modules/console/campaigns) does with the catalogue: list a
// panel's campaigns with their quotas, keep and edit each campaign's document as its author
// wrote it, check a document against the schema, the rules and the panel, and save, open,
// close, duplicate and re-limit campaigns. Every change goes through the document: it is edited
// as text (YAML or JSON), checked like a new one and imported, so the stored definition, the
// catalogue's columns and the text never disagree.

// CampaignSource is a campaign's document as its author wrote it (migration 00023).
type CampaignSource struct {
	CampaignID string `gorm:"primaryKey"`
	FileName   string // its extension says the format: .yaml, .yml or .json
	Source     string
	UpdatedAt  time.Time
}

func (CampaignSource) TableName() string { return "campaign_sources" }

// Console states of a campaign, as the console lists them.
const (
	StateOpen      = "open"
	StateScheduled = "scheduled" // opens_at is still ahead
	StateClosed    = "closed"    // closes_at has passed
	StateFull      = "full"      // a quota without conditions is full
)

// States lists the console states in the order the filter offers them.
var States = []string{StateOpen, StateScheduled, StateClosed, StateFull}

// StateAt is a campaign's console state at now.
func StateAt(opensAt, closesAt *time.Time, quotaFull bool, now time.Time) string {
	switch {
	case closesAt != nil && !now.Before(*closesAt):
		return StateClosed
	case opensAt != nil && now.Before(*opensAt):
		return StateScheduled
	case quotaFull:
		return StateFull
	}
	return StateOpen
}

// ConsoleRow is a campaign as the console's list shows it: the catalogue's columns and the
// sums of its quotas.
type ConsoleRow struct {
	ID              string
	Type            string
	DefaultLanguage string
	Names           Text `gorm:"serializer:json"`
	RewardMinor     int64
	CurrencyCode    string
	OpensAt         *time.Time
	ClosesAt        *time.Time
	PublishedAt     time.Time
	QuotaFull       bool
	IsOnboarding    bool
	IsCompetition   bool
	UpdatedAt       time.Time
	// QuotaLimit and QuotaCompletes add up the campaign's quotas (0 and 0 without quotas).
	QuotaLimit     int
	QuotaCompletes int
	State          string `gorm:"-"`
}

// ConsoleList is every campaign of the panel with its state now, by id.
func (m *Module) ConsoleList(ctx context.Context, panel *web.Panel) ([]ConsoleRow, error) {
	var rows []ConsoleRow
	err := m.db.WithContext(ctx).Table("campaigns AS c").
		Select("c.id, c.type, c.default_language, c.names, c.reward_minor, c.currency_code, c.opens_at, c.closes_at, c.published_at, "+
			"c.quota_full, c.is_onboarding, c.is_competition, c.updated_at, "+
			"COALESCE((SELECT SUM(q.limit_count) FROM campaign_quotas q WHERE q.campaign_id = c.id), 0) AS quota_limit, "+
			"COALESCE((SELECT SUM(q.completes) FROM campaign_quotas q WHERE q.campaign_id = c.id), 0) AS quota_completes").
		Where("c.panel_id = ?", panel.ID).Order("c.id").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list campaigns of panel %s: %w", panel.Key, err)
	}
	now := m.now()
	for i := range rows {
		rows[i].State = StateAt(rows[i].OpensAt, rows[i].ClosesAt, rows[i].QuotaFull, now)
	}
	return rows, nil
}

// State is the campaign's console state now.
func (m *Module) State(c *Campaign) string {
	return StateAt(c.OpensAt, c.ClosesAt, c.QuotaFull, m.now())
}

// Quotas are the campaign's quotas with their limits and completes, by id.
func (m *Module) Quotas(ctx context.Context, panel *web.Panel, id string) ([]CampaignQuota, error) {
	if err := m.store.exists(ctx, panel.ID, id); err != nil {
		return nil, err
	}
	var quotas []CampaignQuota
	if err := m.db.WithContext(ctx).Where("campaign_id = ?", id).Order("quota_id").Find(&quotas).Error; err != nil {
		return nil, fmt.Errorf("load quotas of %s: %w", id, err)
	}
	return quotas, nil
}

// SourceOf is the campaign's document: as its author wrote it, or, for a campaign imported
// without its text, its definition written out as YAML (generated true).
func (m *Module) SourceOf(ctx context.Context, panel *web.Panel, id string) (src CampaignSource, generated bool, err error) {
	c, err := m.store.Campaign(ctx, panel.ID, id)
	if err != nil {
		return src, false, err
	}
	err = m.db.WithContext(ctx).Where("campaign_id = ?", id).Take(&src).Error
	switch {
	case err == nil:
		return src, false, nil
	case !errors.Is(err, gorm.ErrRecordNotFound):
		return src, false, fmt.Errorf("load the document of %s: %w", id, err)
	}
	text, err := DefinitionYAML(&c.Definition)
	if err != nil {
		return src, false, err
	}
	return CampaignSource{CampaignID: id, FileName: "campaign.yaml", Source: string(text), UpdatedAt: c.UpdatedAt}, true, nil
}

// DefinitionYAML writes a definition out as an authoring document in YAML (in the schema's
// field order; texts in one unlabelled language as plain strings).
func DefinitionYAML(def *Definition) ([]byte, error) {
	raw, err := json.Marshal(def)
	if err != nil {
		return nil, fmt.Errorf("encode definition %s: %w", def.UUID, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("read definition %s: %w", def.UUID, err)
	}
	root := docRoot(&doc)
	if root == nil {
		return nil, fmt.Errorf("definition %s: not an object", def.UUID)
	}
	for _, k := range []string{"thank_you", "targeting"} { // written even when empty
		if v := mapGet(root, k); v != nil && v.Kind == yaml.MappingNode && len(v.Content) == 0 {
			mapDelete(root, k)
		}
	}
	blockStyle(root)
	return encodeYAML(&doc)
}

// blockStyle writes every collection in block style and folds a text of only an unlabelled
// string ({"": "Hello"}) back into the plain string it was written as.
func blockStyle(n *yaml.Node) {
	n.Style &^= yaml.FlowStyle | yaml.DoubleQuotedStyle
	for i, c := range n.Content {
		if c.Kind == yaml.MappingNode && len(c.Content) == 2 && c.Content[0].Value == "" {
			n.Content[i] = c.Content[1]
			c = c.Content[1]
		}
		blockStyle(c)
	}
}

func encodeYAML(doc *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("write YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("write YAML: %w", err)
	}
	return b.Bytes(), nil
}

// IsYAML tells whether a document's file name says YAML (else JSON).
func IsYAML(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

// DocumentRule is what a saved document must be besides valid: the campaign it must stay
// (an edit), or a new one.
type DocumentRule struct {
	// ID is the campaign being edited: the document's uuid must stay it ("" for any).
	ID string
	// New: the document's uuid must not be a campaign of the panel yet (a create), unless that
	// campaign's stored document is this very text (the same create sent twice).
	New bool
}

// Saved is what saving a document did.
type Saved struct {
	ID      string
	Created bool
	// Unchanged: the stored document was this text already; nothing was written.
	Unchanged bool
	Before    *Definition // the definition before an update (nil for a create)
	After     *Definition
}

// CheckDocument checks a document as a save would, without saving: the schema and the rules
// (ParseFile), the panel (currency, languages) and the rule (uuid). The problems come as
// *Problems, each with its line.
func (m *Module) CheckDocument(ctx context.Context, panel *web.Panel, name string, data []byte, rule DocumentRule) (*Definition, error) {
	def, err := ParseFile(name, data)
	if err != nil {
		return nil, err
	}
	var found []Problem
	add := func(path, msg string) { found = append(found, Problem{File: name, Path: path, Message: msg}) }
	if _, err := web.ParseMoney(def.Reward, panel.CurrencyCode); err != nil {
		add("/reward", fmt.Sprintf("is not an amount in %s: %v", panel.CurrencyCode, err))
	}
	if def.Competition != nil && def.Competition.PrizeAmount != "" {
		if _, err := web.ParseMoney(def.Competition.PrizeAmount, panel.CurrencyCode); err != nil {
			add("/competition/prize_amount", fmt.Sprintf("is not an amount in %s: %v", panel.CurrencyCode, err))
		}
	}
	if len(panel.Languages) > 0 {
		if lang := def.DefaultLanguage; lang != "" && !panel.Offers(lang) {
			add("/default_language", fmt.Sprintf("%q is not a language of this panel (%s)", lang, panelLanguages(panel)))
		} else if lang == "" && !panel.Offers("en") {
			add("/default_language", fmt.Sprintf("is required: this panel does not offer en (%s)", panelLanguages(panel)))
		}
		for i, l := range def.Targeting.Languages {
			if !panel.Offers(l) {
				add("/targeting/languages/"+strconv.Itoa(i), fmt.Sprintf("%q is not a language of this panel (%s)", l, panelLanguages(panel)))
			}
		}
	}
	owner, err := m.ownerOf(ctx, def.UUID)
	if err != nil {
		return nil, err
	}
	switch {
	case owner != "" && owner != panel.ID:
		add("/uuid", "belongs to a campaign of another panel: give this campaign its own uuid")
	case rule.ID != "" && def.UUID != rule.ID:
		add("/uuid", fmt.Sprintf("must stay %s: this page edits that campaign (duplicate it to make a copy)", rule.ID))
	case rule.New && owner == panel.ID:
		same, err := m.sameSource(ctx, def.UUID, name, data)
		if err != nil {
			return nil, err
		}
		if !same {
			add("/uuid", "is a campaign of this panel already: edit it, or give this campaign its own uuid")
		}
	}
	if len(found) == 0 {
		return def, nil
	}
	lines := documentLines(name, data)
	for i := range found {
		found[i].Line = lines.lineOf(found[i].Path)
	}
	return nil, (&authoringDoc{problems: found}).result()
}

func panelLanguages(panel *web.Panel) string {
	codes := make([]string, len(panel.Languages))
	for i, l := range panel.Languages {
		codes[i] = l.Code
	}
	return strings.Join(codes, ", ")
}

// documentLines reads a valid document again for the line of each value.
func documentLines(name string, data []byte) *authoringDoc {
	d := &authoringDoc{file: name, lines: map[string]int{}}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if IsYAML(name) {
		d.fromYAML(data)
	} else {
		d.fromJSON(data)
	}
	return d
}

// ownerOf is the id of the panel a campaign uuid belongs to, "" when none.
func (m *Module) ownerOf(ctx context.Context, id string) (string, error) {
	var owners []string
	if err := m.db.WithContext(ctx).Model(&Campaign{}).Where("id = ?", id).Limit(1).Pluck("panel_id", &owners).Error; err != nil {
		return "", fmt.Errorf("find campaign %s: %w", id, err)
	}
	if len(owners) == 0 {
		return "", nil
	}
	return owners[0], nil
}

func (m *Module) sameSource(ctx context.Context, id, name string, data []byte) (bool, error) {
	var src []CampaignSource
	if err := m.db.WithContext(ctx).Where("campaign_id = ?", id).Limit(1).Find(&src).Error; err != nil {
		return false, fmt.Errorf("load the document of %s: %w", id, err)
	}
	return len(src) == 1 && src[0].Source == string(data) && src[0].FileName == name, nil
}

// SaveDocument checks a document (CheckDocument) and imports it into the panel with its text,
// in one transaction. The same text saved again changes nothing (Unchanged).
func (m *Module) SaveDocument(ctx context.Context, panel *web.Panel, name string, data []byte, rule DocumentRule) (*Saved, error) {
	def, err := m.CheckDocument(ctx, panel, name, data, rule)
	if err != nil {
		return nil, err
	}
	return m.save(ctx, panel, name, data, def)
}

func (m *Module) save(ctx context.Context, panel *web.Panel, name string, data []byte, def *Definition) (*Saved, error) {
	same, err := m.sameSource(ctx, def.UUID, name, data)
	if err != nil {
		return nil, err
	}
	if same {
		return &Saved{ID: def.UUID, Unchanged: true, After: def}, nil
	}
	row, err := campaignRow(panel, def)
	if err != nil {
		return nil, fmt.Errorf("save campaign %s: %w", def.UUID, err)
	}
	saved := &Saved{ID: def.UUID, After: def}
	now := m.now().UTC()
	db := m.db.WithContext(ctx).Session(&gorm.Session{NowFunc: func() time.Time { return now }})
	err = db.Transaction(func(tx *gorm.DB) error {
		var existing []Campaign
		if err := tx.Where("id = ?", def.UUID).Limit(1).Find(&existing).Error; err != nil {
			return fmt.Errorf("load: %w", err)
		}
		if len(existing) == 1 {
			before := existing[0].Definition
			saved.Before = &before
		}
		created, err := upsertCampaign(tx, row, def, now)
		if err != nil {
			return err
		}
		saved.Created = created
		if err := syncQuotas(tx, row.ID, def.Quotas); err != nil {
			return err
		}
		if err := refreshQuotaState(tx, row.ID); err != nil {
			return err
		}
		src := CampaignSource{CampaignID: def.UUID, FileName: name, Source: string(data), UpdatedAt: now}
		return tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "campaign_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"file_name", "source", "updated_at"}),
		}).Create(&src).Error
	})
	if err != nil {
		return nil, fmt.Errorf("save campaign %s: %w", def.UUID, err)
	}
	m.store.forget(def.UUID)
	m.store.forgetLists()
	if m.log != nil {
		m.log.Info("campaign saved", "panel", panel.Key, "campaign", def.UUID, "created", saved.Created)
	}
	return saved, nil
}

// campaignDoc is a campaign's document (as its author wrote it, or generated) as YAML nodes, to
// edit and write back in the format it came in.
type campaignDoc struct {
	fileName  string
	doc, root *yaml.Node // the document and its root object
}

func (m *Module) documentOf(ctx context.Context, panel *web.Panel, id string) (*campaignDoc, error) {
	src, _, err := m.SourceOf(ctx, panel, id)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src.Source), &doc); err != nil {
		return nil, fmt.Errorf("read the document of %s: %w", id, err)
	}
	root := docRoot(&doc)
	if root == nil {
		return nil, fmt.Errorf("the document of %s is not an object", id)
	}
	return &campaignDoc{fileName: src.FileName, doc: &doc, root: root}, nil
}

// text writes the edited document back as YAML or JSON, as its file was.
func (d *campaignDoc) text() ([]byte, error) {
	if IsYAML(d.fileName) {
		return encodeYAML(d.doc)
	}
	return nodeJSON(d.root)
}

// editDocument edits the campaign's document (as its author wrote it, or generated) with
// edit, checks the result like any document and saves it. The edit tells whether it changed
// anything: nothing changed saves nothing.
func (m *Module) editDocument(ctx context.Context, panel *web.Panel, id string, edit func(root *yaml.Node, now time.Time) (bool, error)) (*Saved, error) {
	d, err := m.documentOf(ctx, panel, id)
	if err != nil {
		return nil, err
	}
	root := d.root
	changed, err := edit(root, m.now().UTC().Truncate(time.Second))
	if err != nil {
		return nil, err
	}
	if !changed {
		c, err := m.store.Campaign(ctx, panel.ID, id)
		if err != nil {
			return nil, err
		}
		return &Saved{ID: id, Unchanged: true, Before: &c.Definition, After: &c.Definition}, nil
	}
	text, err := d.text()
	if err != nil {
		return nil, err
	}
	return m.SaveDocument(ctx, panel, d.fileName, text, DocumentRule{ID: id})
}

// SetOpen opens or closes a campaign by its dates. Closing sets closes_at to now (and drops
// an opens_at still ahead); opening drops a closes_at that passed and brings an opens_at
// still ahead to now. A campaign already so is left as it is (Unchanged).
func (m *Module) SetOpen(ctx context.Context, panel *web.Panel, id string, open bool) (*Saved, error) {
	return m.editDocument(ctx, panel, id, func(root *yaml.Node, now time.Time) (bool, error) {
		opens, closes := docTime(root, "opens_at"), docTime(root, "closes_at")
		changed := false
		if open {
			if closes != nil && !now.Before(*closes) {
				mapDelete(root, "closes_at")
				changed = true
			}
			if opens != nil && now.Before(*opens) {
				mapSet(root, "opens_at", timeNode(now))
				changed = true
			}
			return changed, nil
		}
		if closes != nil && !now.Before(*closes) {
			return false, nil
		}
		if opens != nil && now.Before(*opens) {
			mapDelete(root, "opens_at")
		} else if opens != nil && !now.After(*opens) {
			now = now.Add(time.Second) // closes_at must come after opens_at
		}
		mapSet(root, "closes_at", timeNode(now))
		return true, nil
	})
}

// Duplicate copies a campaign as a new one of the panel, closed (open it when ready). Its
// uuid comes from the original's and key, so the same request sent twice makes one copy.
func (m *Module) Duplicate(ctx context.Context, panel *web.Panel, id, key string) (*Saved, error) {
	orig, err := uuid.Parse(id)
	if err != nil {
		return nil, ErrNotFound
	}
	if key == "" {
		return nil, errors.New("duplicate: no key")
	}
	copyID := uuid.NewSHA1(orig, []byte(key)).String()
	owner, err := m.ownerOf(ctx, copyID)
	if err != nil {
		return nil, err
	}
	if owner == panel.ID {
		c, err := m.store.Campaign(ctx, panel.ID, copyID)
		if err != nil {
			return nil, err
		}
		return &Saved{ID: copyID, Unchanged: true, After: &c.Definition}, nil
	}
	d, err := m.documentOf(ctx, panel, id)
	if err != nil {
		return nil, err
	}
	root := d.root
	mapSet(root, "uuid", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: copyID})
	now := m.now().UTC().Truncate(time.Second)
	mapDelete(root, "opens_at")
	mapSet(root, "closes_at", timeNode(now))
	text, err := d.text()
	if err != nil {
		return nil, err
	}
	return m.SaveDocument(ctx, panel, d.fileName, text, DocumentRule{ID: copyID, New: true})
}

// ErrNoQuota is a quota id the campaign does not have.
var ErrNoQuota = fmt.Errorf("campaign quota: %w", web.ErrNotFound)

// SetQuotaLimit changes one quota's limit in the campaign's document and saves it (its
// completes kept). The limit is checked like any document's (at least 1).
func (m *Module) SetQuotaLimit(ctx context.Context, panel *web.Panel, id, quotaID string, limit int) (*Saved, error) {
	return m.editDocument(ctx, panel, id, func(root *yaml.Node, _ time.Time) (bool, error) {
		quotas := mapGet(root, "quotas")
		if quotas == nil || quotas.Kind != yaml.SequenceNode {
			return false, ErrNoQuota
		}
		for _, q := range quotas.Content {
			if q.Kind != yaml.MappingNode {
				continue
			}
			if idNode := mapGet(q, "id"); idNode == nil || idNode.Value != quotaID {
				continue
			}
			want := strconv.Itoa(limit)
			if cur := mapGet(q, "limit"); cur != nil && cur.Value == want {
				return false, nil
			}
			mapSet(q, "limit", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: want})
			return true, nil
		}
		return false, ErrNoQuota
	})
}

// The document's YAML nodes (JSON documents read as YAML too).

func docRoot(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		return doc.Content[0]
	}
	return nil
}

func mapGet(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// mapSet replaces the value of key (keeping its comments) or adds key at the end.
func mapSet(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			old := m.Content[i+1]
			v.LineComment, v.HeadComment, v.FootComment = old.LineComment, old.HeadComment, old.FootComment
			if old.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode && old.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && v.Tag == "!!str" {
				v.Style = old.Style
			}
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

func mapDelete(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func docTime(m *yaml.Node, key string) *time.Time {
	v := mapGet(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return nil
	}
	t, err := time.Parse(time.RFC3339, v.Value)
	if err != nil {
		return nil
	}
	return &t
}

func timeNode(t time.Time) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: t.UTC().Format(time.RFC3339)}
}

// nodeJSON writes a node as indented JSON (a JSON document edited as YAML nodes).
func nodeJSON(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	if err := writeJSON(&b, n); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("write JSON: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return writeJSON(b, n.Content[0])
	case yaml.AliasNode:
		return writeJSON(b, n.Alias)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			b.Write(k)
			b.WriteByte(':')
			if err := writeJSON(b, n.Content[i+1]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, c); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			b.WriteString("null")
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return fmt.Errorf("write JSON: line %d: %w", n.Line, err)
			}
			out, err := json.Marshal(v)
			if err != nil {
				return fmt.Errorf("write JSON: line %d: %w", n.Line, err)
			}
			b.Write(out)
		default:
			s, _ := json.Marshal(n.Value)
			b.Write(s)
		}
	}
	return nil
}
