package mockserver_test

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// TestDataSetTableWithoutRows serves a DataSet with a nested table of no
// rows (rows: none): its schema declares it, no answer writes a row of it,
// while the tables beside it are filled.
func TestDataSetTableWithoutRows(t *testing.T) {
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "variants", "dataset-nested.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithShape(sh))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, b := range []string{"soap11", "get"} {
		status, body := mocktest.Call(t, srv.URL, asmx.DefaultNamespace, b, asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("over %s: %d %.300s", b, status, body)
		}
		s := string(body)
		if !strings.Contains(s, `<xs:element name="note"`) || strings.Contains(s, "<note ") || !strings.Contains(s, "<address ") {
			t.Errorf("over %s: want note declared and never written, address rows written:\n%.3000s", b, s)
		}
	}
}
