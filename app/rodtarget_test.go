package main

import "github.com/go-rod/rod/lib/proto"

func rodTarget(address string) proto.TargetCreateTarget {
	return proto.TargetCreateTarget{URL: address}
}
