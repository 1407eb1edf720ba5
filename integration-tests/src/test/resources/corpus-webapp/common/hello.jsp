<%@ page contentType="text/plain;charset=UTF-8" import="java.util.TreeSet,java.util.Arrays,java.time.Duration" %>
Hello from a JSP, <%= request.getParameter("name") %>.
filter ${requestScope.stamp}, dispatcher <%= request.getDispatcherType() %>
sorted <%= new TreeSet<String>(Arrays.asList("pear", "apple", "fig")) %>
duration <%= Duration.ofMinutes(90) %>
el ${1 + 2} ${param.name}
