package dcim

import "testing"

func TestAvailablePower(t *testing.T) {
	cases := []struct {
		name                string
		voltage, amps, util int
		phase               string
		want                int
	}{
		{"NetBox's defaults", 120, 15, 80, "single-phase", 1440},
		{"three phases", 208, 30, 80, "three-phase", 8646}, // 4992 × 1.732 = 8646.144
		{"full utilisation", 230, 16, 100, "single-phase", 3680},
		{"negative DC voltage counts by its magnitude", -48, 20, 80, "single-phase", 768},
		// Python's round() rounds half to even: 2.5 → 2, 1.5 → 2.
		{"half rounds to even, down", 5, 1, 50, "single-phase", 2},
		{"half rounds to even, up", 3, 1, 50, "single-phase", 2},
		{"three phases, rounded", 400, 32, 80, "three-phase", 17736}, // 10240 × 1.732 = 17735.68
		{"the largest feed fits a PositiveIntegerField", 32767, 32767, 100, "three-phase", 1859607333},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := AvailablePower(c.voltage, c.amps, c.util, c.phase); got != c.want {
				t.Errorf("AvailablePower(%d, %d, %d, %s) = %d, want %d", c.voltage, c.amps, c.util, c.phase, got, c.want)
			}
		})
	}
}

func TestVoltageRules(t *testing.T) {
	cases := []struct {
		name    string
		voltage int
		supply  string
		field   string
		text    string
	}{
		{"AC 230", 230, "ac", "", ""},
		{"DC -48", -48, "dc", "", ""},
		{"DC 48", 48, "dc", "", ""},
		{"AC negative", -230, "ac", "voltage", "Voltage cannot be negative for AC supply"},
		{"zero AC", 0, "ac", "voltage", "This value may not be [0]."},
		{"zero DC", 0, "dc", "voltage", "This value may not be [0]."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateVoltage(c.voltage)
			if err == nil {
				err = CheckACVoltage(c.voltage, c.supply)
			}
			f, msg := fieldErr(t, err)
			if f != c.field || msg != c.text {
				t.Errorf("got %q %q, want %q %q", f, msg, c.field, c.text)
			}
		})
	}
}
