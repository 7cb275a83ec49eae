# workload module (issue 4)
