document.getElementById("root").textContent = "test shell";
