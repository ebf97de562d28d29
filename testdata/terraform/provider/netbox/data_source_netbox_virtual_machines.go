package netbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/fbreckle/go-netbox/netbox/client/virtualization"
	"github.com/fbreckle/go-netbox/netbox/models"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/id"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/validation"
)

func dataSourceNetboxVirtualMachine() *schema.Resource {
	return &schema.Resource{
		Read:        dataSourceNetboxVirtualMachineRead,
		Description: `:meta:subcategory:Virtualization:`,
		Schema: map[string]*schema.Schema{
			"filter": {
				Type:     schema.TypeSet,
				Optional: true,
				Elem: &schema.Resource{
					Schema: map[string]*schema.Schema{
						"name": {
							Type:     schema.TypeString,
							Required: true,
						},
						"value": {
							Type:     schema.TypeString,
							Required: true,
						},
					},
				},
			},
			"name_regex": {
				Type:         schema.TypeString,
				Optional:     true,
				ValidateFunc: validation.StringIsValidRegExp,
			},
			"limit": {
				Type:             schema.TypeInt,
				Optional:         true,
				ValidateDiagFunc: validation.ToDiagFunc(validation.IntAtLeast(1)),
				Default:          0,
			},
			"vms": {
				Type:     schema.TypeList,
				Computed: true,
				Elem: &schema.Resource{
					Schema: map[string]*schema.Schema{
						"cluster_id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"comments": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"config_context": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"custom_fields": {
							Type:     schema.TypeMap,
							Computed: true,
						},
						"description": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"device_id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"device_name": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"disk_size_mb": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"local_context_data": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"memory_mb": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"name": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"platform_id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"platform_slug": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"platform_name": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"primary_ip": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"primary_ip4": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"primary_ip6": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"role_id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"site_id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"status": {
							Type:     schema.TypeString,
							Computed: true,
						},
						"tag_ids": {
							Type:     schema.TypeList,
							Computed: true,
							Elem: &schema.Schema{
								Type: schema.TypeInt,
							},
						},
						"tenant_id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
						"vcpus": {
							Type:     schema.TypeFloat,
							Computed: true,
						},
						"vm_id": {
							Type:     schema.TypeInt,
							Computed: true,
						},
					},
				},
			},
		},
	}
}

func dataSourceNetboxVirtualMachineRead(d *schema.ResourceData, m interface{}) error {
	api := m.(*providerState)

	params := virtualization.NewVirtualizationVirtualMachinesListParams()

	// Get user limit (0 = fetch all)
	var userLimit int64 = 0
	if limitValue, ok := d.GetOk("limit"); ok {
		userLimit = int64(limitValue.(int))
	}

	if filter, ok := d.GetOk("filter"); ok {
		var filterParams = filter.(*schema.Set)
		var tags []string
		for _, f := range filterParams.List() {
			k := f.(map[string]interface{})["name"]
			v := f.(map[string]interface{})["value"]
			vString := v.(string)
			switch k {
			case "cluster_id":
				params.ClusterID = &vString
			case "cluster_group":
				params.ClusterGroup = &vString
			case "device_id":
				params.Name = &vString
			case "device":
				params.Name = &vString
			case "name":
				params.Name = &vString
			case "region":
				params.Region = &vString
			case "role":
				params.Role = &vString
			case "site":
				params.Site = &vString
			case "tenant_id":
				params.TenantID = &vString
			case "tag":
				tags = append(tags, vString)
				params.Tag = tags
			case "status":
				params.Status = &vString
			case "platform":
				params.Platform = &vString
			case "platform_id":
				params.PlatformID = &vString
			default:
				return fmt.Errorf("'%s' is not a supported filter parameter", k)
			}
		}
	}

	// Fetch all pages with pagination (fetch all when name_regex is used)
	paginationHelper := NewPaginationHelper(FetchAll)
	var allVms []*models.VirtualMachineWithConfigContext

	pageSize := paginationHelper.GetPageSize()
	for {
		currentOffset := paginationHelper.CurrentOffset()
		params.Limit = &pageSize
		params.Offset = &currentOffset

		res, err := api.Virtualization.VirtualizationVirtualMachinesList(params, nil)
		if err != nil {
			return fmt.Errorf("failed to fetch virtual machines at offset %d: %w", currentOffset, err)
		}

		payload := res.GetPayload()
		allVms = append(allVms, payload.Results...)

		if len(payload.Results) == 0 {
			break
		}

		if !paginationHelper.ShouldContinuePaging(int64(len(allVms)), payload.Next) {
			break
		}

		paginationHelper.Advance(int64(len(payload.Results)))
	}

	// Apply name_regex filter
	var filteredVms []*models.VirtualMachineWithConfigContext
	if nameRegex, ok := d.GetOk("name_regex"); ok {
		r := regexp.MustCompile(nameRegex.(string))
		for _, vm := range allVms {
			if r.MatchString(*vm.Name) {
				filteredVms = append(filteredVms, vm)
			}
		}
	} else {
		filteredVms = allVms
	}

	// Apply user limit to filtered results
	if userLimit > 0 && int64(len(filteredVms)) > userLimit {
		filteredVms = filteredVms[:userLimit]
	}

	if len(filteredVms) == 0 {
		return errors.New("no result")
	}

	var s []map[string]interface{}
	for _, v := range filteredVms {
		var mapping = make(map[string]interface{})
		if v.Cluster != nil {
			mapping["cluster_id"] = v.Cluster.ID
		}
		if v.Comments != "" {
			mapping["comments"] = v.Comments
		}
		if v.Description != "" {
			mapping["description"] = v.Description
		}
		if v.Device != nil {
			mapping["device_id"] = v.Device.ID
			mapping["device_name"] = v.Device.Name
		}
		if v.ConfigContext != nil {
			if configContext, err := json.Marshal(v.ConfigContext); err == nil {
				mapping["config_context"] = string(configContext)
			}
		}
		if v.CustomFields != nil {
			mapping["custom_fields"] = flattenCustomFields(v.CustomFields)
		}
		if v.Disk != nil {
			mapping["disk_size_mb"] = *v.Disk
		}
		if v.LocalContextData != nil {
			if localContextData, err := json.Marshal(v.LocalContextData); err == nil {
				mapping["local_context_data"] = string(localContextData)
			}
		}
		if v.Memory != nil {
			mapping["memory_mb"] = *v.Memory
		}
		if v.Name != nil {
			mapping["name"] = *v.Name
		}
		if v.Platform != nil {
			mapping["platform_id"] = v.Platform.ID
			mapping["platform_slug"] = v.Platform.Slug
			mapping["platform_name"] = v.Platform.Name
		}
		if v.PrimaryIP != nil {
			mapping["primary_ip"] = v.PrimaryIP.Address
		}
		if v.PrimaryIp4 != nil {
			mapping["primary_ip4"] = v.PrimaryIp4.Address
		}
		if v.PrimaryIp6 != nil {
			mapping["primary_ip6"] = v.PrimaryIp6.Address
		}
		if v.Role != nil {
			mapping["role_id"] = v.Role.ID
		}
		if v.Site != nil {
			mapping["site_id"] = v.Site.ID
		}
		if v.Status != nil {
			mapping["status"] = v.Status.Value
		}
		if v.Tags != nil {
			var tags []int64
			for _, t := range v.Tags {
				tags = append(tags, t.ID)
			}
			mapping["tag_ids"] = tags
		}
		if v.Tenant != nil {
			mapping["tenant_id"] = v.Tenant.ID
		}
		if v.Vcpus != nil {
			mapping["vcpus"] = *v.Vcpus
		}

		mapping["vm_id"] = v.ID

		s = append(s, mapping)
	}

	d.SetId(id.UniqueId())
	return d.Set("vms", s)
}
