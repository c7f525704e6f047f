package shape_test

import (
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape"
)

// fitReader is a C# program reading, with XmlSerializer, each line of
// stdin ("type value") as the element of a field of that XSD type's .NET
// type, as a client's proxy reads a result; it prints "ok" or the type of
// the exception that stopped it.
const fitReader = `using System; using System.IO; using System.Xml.Serialization;
public class R {
  [XmlElement("byte")] public sbyte B; [XmlElement("unsignedByte")] public byte UB;
  [XmlElement("short")] public short S; [XmlElement("unsignedShort")] public ushort US;
  [XmlElement("int")] public int I; [XmlElement("unsignedInt")] public uint UI;
  [XmlElement("long")] public long L; [XmlElement("unsignedLong")] public ulong UL;
  [XmlElement("boolean")] public bool Bo;
  [XmlElement("integer", DataType = "integer")] public string In;
  [XmlElement("nonNegativeInteger", DataType = "nonNegativeInteger")] public string NNI;
}
public class P {
  public static void Main() {
    var ser = new XmlSerializer(typeof(R));
    string line;
    while ((line = Console.ReadLine()) != null) {
      var f = line.Split(' ');
      try {
        ser.Deserialize(new StringReader("<R><" + f[0] + ">" + f[1] + "</" + f[0] + "></R>"));
        Console.WriteLine("ok");
      } catch (Exception e) {
        Console.WriteLine(e.InnerException != null ? e.InnerException.GetType().Name : e.GetType().Name);
      }
    }
  }
}
`

// TestIntRangeIsDotNets: the ranges CheckData holds integer types to are
// those a .NET client reads (Mono's XmlSerializer, with which a proxy
// reads a result): each type's lowest and highest value are read, one
// past either end throws (OverflowException, or FormatException for a
// negative value in an unsigned type or a boolean), and xs:integer and
// xs:nonNegativeInteger, read as strings, hold anything (unbounded).
func TestIntRangeIsDotNets(t *testing.T) {
	refdeploy.RequireClient(t)
	dir := t.TempDir()
	src, exe := filepath.Join(dir, "fit.cs"), filepath.Join(dir, "fit.exe")
	if err := os.WriteFile(src, []byte(fitReader), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mcs", "-nologo", "-r:System.Xml", "-out:"+exe, src).CombinedOutput(); err != nil {
		t.Fatalf("mcs: %v\n%s", err, out)
	}
	type probe struct {
		typ, value string
		read       bool
	}
	var probes []probe
	one := big.NewInt(1)
	for _, typ := range []string{"byte", "unsignedByte", "short", "unsignedShort", "int", "unsignedInt", "long", "unsignedLong", "boolean"} {
		lo, hi, bounded := shape.IntRange(typ)
		if !bounded {
			t.Errorf("%s: unbounded, want a range", typ)
			continue
		}
		l, h := big.NewInt(lo), big.NewInt(hi)
		probes = append(probes, probe{typ, l.String(), true}, probe{typ, h.String(), true},
			probe{typ, new(big.Int).Sub(l, one).String(), false})
		if typ != "unsignedLong" { // its maximum is past the data model's int64
			probes = append(probes, probe{typ, new(big.Int).Add(h, one).String(), false})
		}
	}
	for _, typ := range []string{"integer", "nonNegativeInteger"} {
		if _, _, bounded := shape.IntRange(typ); bounded {
			t.Errorf("%s: bounded, want unbounded (read as a string)", typ)
		}
		probes = append(probes, probe{typ, "-99999999999999999999", true}, probe{typ, "99999999999999999999", true})
	}
	var in strings.Builder
	for _, p := range probes {
		fmt.Fprintf(&in, "%s %s\n", p.typ, p.value)
	}
	cmd := exec.Command("mono", exe)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mono: %v", err)
	}
	got := strings.Fields(string(out))
	if len(got) != len(probes) {
		t.Fatalf("got %d answers for %d probes:\n%s", len(got), len(probes), out)
	}
	for i, p := range probes {
		switch {
		case p.read && got[i] != "ok":
			t.Errorf("%s %s: the .NET client threw %s, want it read (in range)", p.typ, p.value, got[i])
		case !p.read && got[i] != "OverflowException" && got[i] != "FormatException":
			t.Errorf("%s %s: the .NET client got %s, want it to throw (out of range)", p.typ, p.value, got[i])
		}
	}
}
