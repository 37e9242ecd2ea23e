"""Vigil's model trainer: plate reader (CRNN-CTC) and, later, plate detector.

Debian packages only (python3-torch, python3-torchvision, python3-onnx, python3-opencv);
run with /usr/bin/python3 from the training/ folder.
"""
