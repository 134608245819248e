# Quits after N rendered frames: N is 8, or the number given after "--" as
# "--frames=N" (godot3 --path DIR -- --frames=N).
extends Node

var frames_left = 8

func _ready():
	for arg in OS.get_cmdline_args():
		if arg.begins_with("--frames="):
			frames_left = int(arg.substr(9, arg.length() - 9))
	print("xfbtrace-godot: running %d frames" % frames_left)

func _process(_delta):
	frames_left -= 1
	if frames_left <= 0:
		print("xfbtrace-godot: done")
		get_tree().quit()
